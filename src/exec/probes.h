// Probes of what this machine allows, shared by RunPython and CheckProtections (`lakeqa doctor`).
#pragma once

#include <string>

namespace lakeqa::exec {

// Whether this bubblewrap knows a flag (--disable-userns needs bubblewrap 0.8); asked once per binary.
bool BwrapSupports(const std::string& bwrap, const std::string& flag);

}  // namespace lakeqa::exec
