# Locates the solver and learner libraries (Gecode, isl, XGBoost) and exposes
# them as imported targets: raf::gecode, raf::isl and xgboost::xgboost.

include(${CMAKE_CURRENT_LIST_DIR}/RAFLibraryDependencies.cmake)

# gtest for the unit tests.
find_package(GTest REQUIRED)
