"""payback._core.model: compare, the cash-flow line items and the metric table."""

from ..results import CompareRaw, MetricRow
from .scenario import Scenario

def line_item_names() -> list[str]:
    """The cash-flow columns that add up to net"""

def metric_table() -> list[MetricRow]:
    """Every metric compare reports, in output order (lib/src/model/metric_table.cpp): name, unit, scope (option, pair or job), type, description, csv, header, decimals"""

def compare(scenario: Scenario) -> CompareRaw: ...
