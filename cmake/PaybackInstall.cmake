# `cmake --install build --prefix P` (docs/install.md): the program, the two libraries with their
# public headers and a CMake package (find_package(payback CONFIG)), the pricing catalogs, the example
# scenarios and the docs. Tests, fuzzers, perf programs and the Python module install nothing here.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(payback_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/payback)

install(TARGETS payback RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# The program opens the CUDA trainer from its own folder (lib/bench/cuda/loader.cpp), so it goes there.
if(TARGET payback_cuda)
  install(TARGETS payback_cuda LIBRARY DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()

# The libraries are static: each archive holds its ISA variants' objects (cmake/PaybackIsa.cmake adds
# them as sources), so a consumer links them without the object libraries.
set_target_properties(payback_core PROPERTIES EXPORT_NAME core)
set_target_properties(payback_report PROPERTIES EXPORT_NAME report)
install(TARGETS payback_core payback_report EXPORT paybackTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
# The public headers only (lib/src holds the private ones). isa_dispatch.hpp stays out: its macros
# expand this build's list of variants, and only the library's own per-variant objects use it.
install(DIRECTORY lib/include/payback lib/report/include/payback
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        FILES_MATCHING PATTERN "*.hpp" PATTERN "isa_dispatch.hpp" EXCLUDE)

install(EXPORT paybackTargets NAMESPACE payback:: DESTINATION ${payback_cmake_dir})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/paybackConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/paybackConfig.cmake INSTALL_DESTINATION ${payback_cmake_dir})
# Before 1.0 a minor version may change the API, so only the same minor version is compatible.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/paybackConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/paybackConfig.cmake ${PROJECT_BINARY_DIR}/paybackConfigVersion.cmake
        DESTINATION ${payback_cmake_dir})

# The catalogs scenarios name (grid_region, instance, region) with their notes, whatever files
# pricing/ holds: CSV, JSON, Markdown, and the tariffs beneath.
install(DIRECTORY pricing/ DESTINATION ${CMAKE_INSTALL_DATADIR}/payback/pricing
        FILES_MATCHING PATTERN "*.csv" PATTERN "*.json" PATTERN "*.md")
install(DIRECTORY scenarios/ DESTINATION ${CMAKE_INSTALL_DATADIR}/payback/scenarios
        FILES_MATCHING PATTERN "*.toml")
file(GLOB payback_docs CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/docs/*.md)
install(FILES README.md ${payback_docs} DESTINATION ${CMAKE_INSTALL_DOCDIR})
