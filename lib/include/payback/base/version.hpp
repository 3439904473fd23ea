// payback's version: the CMake project's, the one number the program (--version), the Python
// package (payback.__version__), the wheel and the installed CMake package all report.
#pragma once

namespace payback {

/// "MAJOR.MINOR.PATCH", from project(payback VERSION ...) in CMakeLists.txt.
const char* version();

}  // namespace payback
