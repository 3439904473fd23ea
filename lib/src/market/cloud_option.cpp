#include "payback/market/cloud_option.hpp"

namespace payback {

const char* to_string(CloudMode mode) {
    switch (mode) {
        case CloudMode::on_demand: return "on_demand";
        case CloudMode::spot: return "spot";
        case CloudMode::reserved_1y: return "reserved_1y";
        case CloudMode::reserved_3y: return "reserved_3y";
    }
    return "on_demand";
}

}  // namespace payback
