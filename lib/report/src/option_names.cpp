#include "payback/report/option_names.hpp"

#include <utility>

#include "payback/base/arguments.hpp"

namespace payback {

InputError with_option_names(const InputError& e) {
    static const std::pair<const char*, const char*> options[] = {
        {argument::sweep_axis, "--vary"},        {argument::tornado_key, "--vary"},
        {argument::tornado_swing, "--swing"},    {argument::breakeven_key, "--for"},
        {argument::breakeven_range, "--range"},  {argument::cloud_option, "--against"},
        {argument::sample_count, "--samples"},   {argument::instance_filter, "--cloud"}};
    for (const auto& [name, option] : options)
        if (e.source() == name) return {option, e.line(), e.key_path(), e.message()};
    return e;
}

}  // namespace payback
