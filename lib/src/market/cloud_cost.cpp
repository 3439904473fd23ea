#include "payback/market/cloud_cost.hpp"

#include "payback/base/conventions.hpp"
#include "payback/market/cloud_billing.hpp"

namespace payback {

CloudMonth cloud_month(const CloudOption& cloud, double work_hours, std::optional<double> job_hours) {
    CloudMonth m;
    if (cloud.api) {  // per token: no instance hours
        m.spend = api_month_cost(*cloud.api, cloud.tokens);
        m.effective_price_per_work_hour = work_hours > 0 ? m.spend / work_hours : 0.0;
        return m;
    }
    const double price = units::in_money_per_hour(cloud.price);
    m.instance_hours = work_hours / cloud.speedup;
    if (cloud.spot) m.instance_hours *= spot_overhead_factor(*cloud.spot);
    m.billed_hours = job_hours && m.instance_hours > 0
                         ? billed_hours_per_month(cloud.billing, m.instance_hours, *job_hours / cloud.speedup)
                         : m.instance_hours;
    // Serving is billed as it runs (or the whole month for an instance kept on).
    const double serving = cloud.tokens_per_second ? serving_hours_per_month(cloud.tokens, *cloud.tokens_per_second) : 0.0;
    m.instance_hours += serving;
    m.billed_hours = cloud.always_on ? conventions::hours_per_month : m.billed_hours + serving;
    const double on_demand = units::in_money_per_hour(cloud.on_demand_price);
    const bool reserved = cloud.mode == CloudMode::reserved_1y || cloud.mode == CloudMode::reserved_3y;
    m.spend = reserved ? reserved_monthly_cost(m.billed_hours, cloud.committed_hours_per_month, price, on_demand)
                       : m.billed_hours * price;
    m.spend += egress_cost(cloud.egress_gb_per_month, cloud.egress_price_per_gb);
    m.effective_price_per_work_hour = work_hours > 0 ? m.spend / work_hours : 0.0;
    if (cloud.spot && on_demand > 0)
        m.breakeven_interruptions_per_hour =
            breakeven_interruption_rate(price, on_demand, cloud.spot->checkpoint_interval_hours,
                                        cloud.spot->restart_hours, cloud.spot->checkpoint_cost_hours);
    if (reserved && on_demand > 0) m.breakeven_utilization = reserved_breakeven_utilization(price, on_demand);
    return m;
}

}  // namespace payback
