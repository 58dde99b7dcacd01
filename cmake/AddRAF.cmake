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

# raf_export_include_directories(): gives every exported RAF library the
# include directories a consumer of the installed tree needs (RAF-MLIR's
# headers and generated files under <prefix>/include, and those of the MLIR
# and LLVM they were built against), so that linking e.g. RAFInitAll is
# enough and a consumer sets no include_directories. Only the install
# interface is set: inside this build the directory-level
# include_directories apply as before. Called once every library exists.
function(raf_export_include_directories)
  get_property(exported GLOBAL PROPERTY MLIR_EXPORTS)
  list(APPEND exported RAFCAPI)
  list(REMOVE_DUPLICATES exported)
  set(upstream ${MLIR_INCLUDE_DIRS} ${LLVM_INCLUDE_DIRS})
  list(REMOVE_DUPLICATES upstream)
  set(dirs "$<INSTALL_INTERFACE:include>")
  foreach(dir ${upstream})
    list(APPEND dirs "$<INSTALL_INTERFACE:${dir}>")
  endforeach()
  foreach(target ${exported})
    if(TARGET ${target})
      target_include_directories(${target} INTERFACE ${dirs})
    endif()
  endforeach()
endfunction()
