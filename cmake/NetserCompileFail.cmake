# netser_add_compile_fail_test(NAME <name> SOURCE <file.cpp> LINK <target>...
#                              REGEX <regex> [FORBID <regex>] [MAX_LINES <n>]
#                              [COMPILERS <c++ compiler>...])
#
# A test that passes only when compiling <file.cpp> fails the way a user should see
# it fail: the first line that says `error:` matches <regex> (e.g. "netser:
# Player.inventory: std::vector member needs netser::max_size"), nothing matches
# FORBID, and the compiler prints at most MAX_LINES lines (30 unless given).
#
# The source becomes an OBJECT library kept out of `all`. With a generator that writes
# compile_commands.json (Makefiles, Ninja) and a GNU-style compiler, the test runs the
# library's compile command itself (cmake/check_compile_fail.cmake), once with the
# build's compiler and once with each of COMPILERS (the same flags); otherwise it
# builds the library and only matches <regex> anywhere in the output.
include_guard(GLOBAL)

set(NETSER_COMPILE_FAIL_SCRIPT "${CMAKE_CURRENT_LIST_DIR}/check_compile_fail.cmake")

function(netser_add_compile_fail_test)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "NAME;SOURCE;REGEX;FORBID;MAX_LINES" "LINK;COMPILERS")
  foreach(required NAME SOURCE REGEX)
    if(NOT arg_${required})
      message(FATAL_ERROR "netser_add_compile_fail_test: ${required} is required")
    endif()
  endforeach()
  if(NOT arg_MAX_LINES)
    set(arg_MAX_LINES 30)
  endif()

  set(target "compile_fail_${arg_NAME}")
  add_library(${target} OBJECT EXCLUDE_FROM_ALL "${arg_SOURCE}")
  target_link_libraries(${target} PRIVATE ${arg_LINK})
  set_target_properties(${target} PROPERTIES EXCLUDE_FROM_DEFAULT_BUILD ON)

  if(CMAKE_EXPORT_COMPILE_COMMANDS AND CMAKE_GENERATOR MATCHES "Makefiles|Ninja"
     AND CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    get_filename_component(source "${arg_SOURCE}" ABSOLUTE)
    set(compilers "${CMAKE_CXX_COMPILER}" ${arg_COMPILERS})
    list(REMOVE_DUPLICATES compilers)
    foreach(cxx IN LISTS compilers)
      if(cxx STREQUAL CMAKE_CXX_COMPILER)
        set(test compile_fail.${arg_NAME})
      else()
        get_filename_component(tag "${cxx}" NAME)
        set(test compile_fail.${arg_NAME}.${tag})
      endif()
      add_test(NAME ${test}
        COMMAND "${CMAKE_COMMAND}"
          "-DCOMPILE_COMMANDS=${CMAKE_BINARY_DIR}/compile_commands.json"
          "-DSOURCE=${source}" "-DBUILD_CXX=${CMAKE_CXX_COMPILER}" "-DCXX=${cxx}" "-DEXPECT=${arg_REGEX}" "-DFORBID=${arg_FORBID}"
          "-DMAX_LINES=${arg_MAX_LINES}"
          -P "${NETSER_COMPILE_FAIL_SCRIPT}")
      set_tests_properties(${test} PROPERTIES LABELS compile_fail TIMEOUT 300)
    endforeach()
  else()
    add_test(NAME compile_fail.${arg_NAME}
      COMMAND "${CMAKE_COMMAND}" --build "${CMAKE_BINARY_DIR}" --target ${target} --config $<CONFIG>)
    set_tests_properties(compile_fail.${arg_NAME} PROPERTIES
      PASS_REGULAR_EXPRESSION "${arg_REGEX}"
      LABELS compile_fail
      TIMEOUT 300
      # Builds of the same tree must not run at once (Ninja and make share state).
      RESOURCE_LOCK netser_build_tree)
  endif()
endfunction()
