// Grid carbon intensity and cloud-region data, read from dated, sourced CSV catalogs
// (pricing/grid-carbon.csv and pricing/cloud-regions.csv), so the CO2 of a rig's or a rental's
// electricity can be told from the grid it runs on rather than from one global guess.
#pragma once

#include <string>

namespace payback {

/// The average carbon intensity of one grid (a country, a US state, a province, the EU...).
struct GridIntensity {
    std::string region;     ///< ISO 3166 style code: "US", "US-CA", "CA-QC", "DE", "EU", "WORLD"
    std::string name;       ///< human name: "California", "Germany"
    double kg_co2_per_kwh;  ///< kg CO2 (or CO2e: see pricing/README.md) per kWh
    int year;               ///< the year the figure describes
};

/// The row of `region` in a grid-carbon CSV with columns region,name,kg_co2_per_kwh,year,as_of,
/// source. The whole file is checked, not only `region`'s row. InputError (naming file, line and
/// column): a missing column; a region that is not an ISO 3166 style code or is listed twice; an
/// empty name, as_of or source; an intensity that is negative, not a number or above 2 kg/kWh
/// (grams entered as kilograms); a year that is not whole, before 1990 or after the as_of year;
/// an as_of that is not a date YYYY-MM-DD or YYYY-MM; an unknown region (with a "did you mean").
GridIntensity load_grid_intensity(const std::string& csv_path, const std::string& region);

/// One cloud region: where its electricity comes from and how much the facility adds.
struct CloudRegion {
    std::string provider;   ///< "aws", "gcp", "azure", "lambda", "runpod"
    std::string region;     ///< the provider's own name: "us-east-1", "europe-west4", "eastus"
    double kg_co2_per_kwh;  ///< location-based intensity of the grid the region draws on
    double pue;             ///< power usage effectiveness: facility energy / IT energy, >= 1
};

/// The row of (`provider`, `region`) in a cloud-regions CSV with columns provider,region,
/// grid_region,kg_co2_per_kwh,pue,as_of,source. The whole file is checked. InputError: a missing
/// column; an empty provider, region, as_of or source; a grid_region that is not an ISO 3166 style
/// code; an intensity as for load_grid_intensity; a PUE below 1 or above 3; a (provider, region)
/// listed twice; an unknown provider, or a region the provider does not have (with a hint).
CloudRegion load_cloud_region(const std::string& csv_path, const std::string& provider,
                              const std::string& region);

/// kg CO2 of an amount of energy: kWh × intensity. For a cloud region the energy is the facility's,
/// IT energy × PUE: the caller multiplies, so co2_kg(it_kwh * r.pue, r.kg_co2_per_kwh).
inline double co2_kg(double kwh, double kg_per_kwh) { return kwh * kg_per_kwh; }

}  // namespace payback
