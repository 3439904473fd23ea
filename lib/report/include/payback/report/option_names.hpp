// How the user typed the library's arguments: the program's options, which the Python package's
// methods mirror (Scenario.sweep is `payback sweep`). The library names an argument by what it is
// (payback/base/arguments.hpp: "sweep axis"); both front ends name it "--vary".
#pragma once

#include "payback/base/error.hpp"

namespace payback {

/// An error about an argument, its source renamed to the option ("--vary"); others as they are.
InputError with_option_names(const InputError& e);

}  // namespace payback
