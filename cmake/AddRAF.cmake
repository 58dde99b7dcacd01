# add_raf_library(name source...): a static library of RAF-MLIR that
# add_mlir_library cannot build (e.g. one compiled with -fexceptions for
# Gecode, or one that links no MLIR), installed and exported like the
# add_mlir_library ones: into the export set installed as
# RAFMLIRTargets.cmake (docs/ecosystem.md). Dependencies are declared with
# target_link_libraries as usual.
#
# add_mlir_library already installs into that set (its name, MLIRTargets, is
# local to this build), so every RAF library is found by
# find_package(RAFMLIR).
function(add_raf_library name)
  add_library(${name} STATIC ${ARGN})
  install(TARGETS ${name}
    EXPORT MLIRTargets
    ARCHIVE DESTINATION lib${LLVM_LIBDIR_SUFFIX}
    COMPONENT ${name})
  set_property(GLOBAL APPEND PROPERTY MLIR_EXPORTS ${name})
endfunction()
