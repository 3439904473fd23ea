#include "payback/base/version.hpp"

namespace payback {

// PAYBACK_VERSION is defined for this file alone (lib/CMakeLists.txt), so a new version rebuilds one file.
const char* version() { return PAYBACK_VERSION; }

}  // namespace payback
