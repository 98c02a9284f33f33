#pragma once

#include <string>
#include <vector>

#include "index/segment.h"

namespace lakeqa::index {

// Writes segment `name` holding the live documents of `segs` in order (segment by segment, doc order
// kept), postings merged term by term with document numbers remapped. *num_docs gets its size.
Status MergeSegments(const std::string& dir, const std::string& name, size_t num_fields,
                     const std::vector<const Segment*>& segs, const std::vector<const DeleteBitmap*>& dels,
                     uint32_t* num_docs);

}  // namespace lakeqa::index
