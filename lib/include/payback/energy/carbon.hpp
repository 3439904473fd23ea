// Grid carbon intensity and cloud-region data, as read from dated, sourced CSV catalogs
// (pricing/grid-carbon.csv and pricing/cloud-regions.csv, loaded by payback/market/carbon_tables.hpp),
// so the CO2 of a rig's or a rental's electricity can be told from the grid it runs on rather than
// from one global guess.
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

/// One cloud region: where its electricity comes from and how much the facility adds.
struct CloudRegion {
    std::string provider;   ///< "aws", "gcp", "azure", "lambda", "runpod"
    std::string region;     ///< the provider's own name: "us-east-1", "europe-west4", "eastus"
    double kg_co2_per_kwh;  ///< location-based intensity of the grid the region draws on
    double pue;             ///< power usage effectiveness: facility energy / IT energy, >= 1
};

/// kg CO2 of an amount of energy: kWh × intensity. For a cloud region the energy is the facility's,
/// IT energy × PUE: the caller multiplies, so co2_kg(it_kwh * r.pue, r.kg_co2_per_kwh).
inline double co2_kg(double kwh, double kg_per_kwh) { return kwh * kg_per_kwh; }

}  // namespace payback
