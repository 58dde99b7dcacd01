# The solver and learner libraries (Gecode, isl, XGBoost) that RAF-MLIR's
# libraries link, as imported targets: raf::gecode, raf::isl and
# xgboost::xgboost. Used by the build (RAFDependencies.cmake) and installed next
# to RAFMLIRConfig.cmake, which includes it for find_package(RAFMLIR) users.
if(TARGET raf::gecode)
  return()
endif()

# Gecode ships no CMake package: find its component libraries directly.
find_path(GECODE_INCLUDE_DIR gecode/kernel.hh REQUIRED)
set(RAF_GECODE_LIBS)
foreach(component kernel support int set search minimodel)
  find_library(GECODE_${component}_LIBRARY gecode${component} REQUIRED)
  list(APPEND RAF_GECODE_LIBS ${GECODE_${component}_LIBRARY})
endforeach()
add_library(raf::gecode INTERFACE IMPORTED)
set_target_properties(raf::gecode PROPERTIES
  INTERFACE_INCLUDE_DIRECTORIES "${GECODE_INCLUDE_DIR}"
  INTERFACE_LINK_LIBRARIES "${RAF_GECODE_LIBS}")

# isl: libLLVM.so exports Polly's private copy of isl. The real libisl.so must
# be a DT_NEEDED entry ahead of libLLVM.so. CMake places an INTERFACE target's
# link items after the consumer's direct ones, so libisl.so goes in as a link
# *option* (options precede every object and library), with --no-as-needed
# because Debian's linker defaults to --as-needed.
# unittests/Analysis/PolyhedralTest checks where isl symbols bind.
find_path(ISL_INCLUDE_DIR isl/ctx.h REQUIRED)
find_library(ISL_LIBRARY isl REQUIRED)
add_library(raf::isl INTERFACE IMPORTED)
set_target_properties(raf::isl PROPERTIES
  INTERFACE_INCLUDE_DIRECTORIES "${ISL_INCLUDE_DIR}"
  INTERFACE_LINK_OPTIONS
    "SHELL:-Wl,--push-state,--no-as-needed ${ISL_LIBRARY} -Wl,--pop-state")

# XGBoost through its own CMake package (needs the `xgboost` CLI package too,
# because the exported targets file names the binary).
find_package(xgboost REQUIRED CONFIG)
