// What an InputError is about when it is not a file: the arguments a caller hands the library besides
// a scenario. The library names them by what they are; each front end says how its user typed them
// (the command line's --vary, --for, ...; payback/report/option_names.hpp).
#pragma once

namespace payback::argument {

inline constexpr const char* sweep_axis = "sweep axis";          ///< a swept key and its range
inline constexpr const char* tornado_key = "tornado key";        ///< a key a tornado swings
inline constexpr const char* tornado_swing = "tornado swing";    ///< how far it swings each key
inline constexpr const char* breakeven_key = "breakeven key";    ///< the key break-even solves for
inline constexpr const char* breakeven_range = "breakeven range";  ///< where it looks
inline constexpr const char* cloud_option = "cloud option";      ///< the cloud option compared against
inline constexpr const char* sample_count = "sample count";      ///< Monte Carlo's samples
inline constexpr const char* instance_filter = "instance filter";  ///< which catalog instances to compare

}  // namespace payback::argument
