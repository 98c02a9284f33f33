// The built-in source kinds' readers (source_<kind>.cc); the shared context is build_context.h.
#pragma once

#include <string>

#include "lakeqa/ingest/build_context.h"

namespace lakeqa::ingest {

// One function per source kind (source_<kind>.cc). They return an error only when the source as a
// whole cannot be read; item-level problems go to the context.
Status BuildEnwiki(BuildContext& ctx, const std::string& path);
Status BuildDir(BuildContext& ctx, const std::string& path);
Status BuildDatagov(BuildContext& ctx, const std::string& path);

}  // namespace lakeqa::ingest
