# gpusort_find_nccl(): NCCL's header and library as the imported target
# gpusort::nccl, which gpusort::multi links. Used by the build
# (CMakeLists.txt) and, installed beside gpusortConfig.cmake, by projects
# that find the installed package, so that the exported gpusort::multi names
# no path of the machine it was built on. Searched: NCCL_ROOT (a CMake or
# environment variable, e.g. the nvidia-nccl wheel's folder
# site-packages/nvidia/nccl), NCCL_HOME, the CUDA toolkit, the system.
# The library may be libnccl.so or only libnccl.so.2 (as the wheel ships it).
# Without NCCL, gpusort::nccl is not defined.
function(gpusort_find_nccl)
  if(TARGET gpusort::nccl)
    return()
  endif()
  set(roots ${NCCL_ROOT} $ENV{NCCL_ROOT} $ENV{NCCL_HOME})
  find_path(NCCL_INCLUDE_DIR nccl.h HINTS ${roots} ${CUDAToolkit_INCLUDE_DIRS} PATH_SUFFIXES include)
  find_library(NCCL_LIBRARY NAMES nccl libnccl.so.2 HINTS ${roots} ${CUDAToolkit_LIBRARY_DIR}
    PATH_SUFFIXES lib lib64)
  if(NCCL_INCLUDE_DIR AND NCCL_LIBRARY)
    add_library(gpusort::nccl UNKNOWN IMPORTED)
    set_target_properties(gpusort::nccl PROPERTIES IMPORTED_LOCATION "${NCCL_LIBRARY}"
      INTERFACE_INCLUDE_DIRECTORIES "${NCCL_INCLUDE_DIR}")
  endif()
endfunction()
