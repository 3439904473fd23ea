// The two carbon catalogs, pricing/grid-carbon.csv and pricing/cloud-regions.csv, each read and
// checked whole once (the Catalog holds them) and then looked up by region. The row types are the
// energy layer's (payback/energy/carbon.hpp); reading the sourced files is the market layer's.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "payback/energy/carbon.hpp"

namespace payback {

/// The rows of a grid-carbon CSV with columns region,name,kg_co2_per_kwh,year,as_of,source.
class GridCarbonTable {
public:
    /// Reads and checks the whole file. InputError (naming file, line and column): a missing
    /// column; a region that is not an ISO 3166 style code or is listed twice; an empty name, as_of
    /// or source; an intensity that is negative, not a number or above 2 kg/kWh (grams entered as
    /// kilograms); a year that is not whole, before 1990 or after the as_of year; an as_of that is
    /// not a date YYYY-MM-DD or YYYY-MM.
    static GridCarbonTable load(const std::string& csv_path);
    /// The same from text in memory, errors naming `csv_path`.
    static GridCarbonTable parse(std::string_view text, const std::string& csv_path);

    /// The row of `region`; InputError (the file, line 0, key "region") with a "did you mean" or
    /// the file's regions on a miss.
    const GridIntensity& find(const std::string& region) const;
    const std::vector<GridIntensity>& rows() const { return rows_; }

private:
    std::string path_;
    std::vector<GridIntensity> rows_;  ///< in file order
};

/// The rows of a cloud-regions CSV with columns provider,region,grid_region,kg_co2_per_kwh,pue,
/// as_of,source.
class CloudRegionTable {
public:
    /// Reads and checks the whole file. InputError: a missing column; an empty provider, region,
    /// as_of or source; a grid_region that is not an ISO 3166 style code; an intensity as for the
    /// grid file; a PUE below 1 or above 3; a (provider, region) listed twice.
    static CloudRegionTable load(const std::string& csv_path);
    /// The same from text in memory, errors naming `csv_path`.
    static CloudRegionTable parse(std::string_view text, const std::string& csv_path);

    /// The row of (`provider`, `region`); InputError (the file, line 0, key "provider" or "region")
    /// for an unknown provider, or a region the provider does not have, with a hint.
    const CloudRegion& find(const std::string& provider, const std::string& region) const;
    const std::vector<CloudRegion>& rows() const { return rows_; }

private:
    std::string path_;
    std::vector<CloudRegion> rows_;  ///< in file order
};

}  // namespace payback
