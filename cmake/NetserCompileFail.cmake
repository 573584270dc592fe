# netser_add_compile_fail_test(NAME <name> SOURCE <file.cpp> LINK <target>
#                              REGEX <regex>)
#
# A test that passes only when compiling <file.cpp> fails with a diagnostic
# matching <regex> (e.g. "netser: std::vector member needs netser::max_size").
# The source becomes an OBJECT library kept out of `all`; the test builds it.
include_guard(GLOBAL)

function(netser_add_compile_fail_test)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "NAME;SOURCE;REGEX" "LINK")
  foreach(required NAME SOURCE REGEX)
    if(NOT arg_${required})
      message(FATAL_ERROR "netser_add_compile_fail_test: ${required} is required")
    endif()
  endforeach()

  set(target "compile_fail_${arg_NAME}")
  add_library(${target} OBJECT EXCLUDE_FROM_ALL "${arg_SOURCE}")
  target_link_libraries(${target} PRIVATE ${arg_LINK})
  set_target_properties(${target} PROPERTIES EXCLUDE_FROM_DEFAULT_BUILD ON)

  add_test(NAME compile_fail.${arg_NAME}
    COMMAND "${CMAKE_COMMAND}" --build "${CMAKE_BINARY_DIR}" --target ${target} --config $<CONFIG>)
  set_tests_properties(compile_fail.${arg_NAME} PROPERTIES
    PASS_REGULAR_EXPRESSION "${arg_REGEX}"
    LABELS compile_fail
    TIMEOUT 300
    # Builds of the same tree must not run at once (Ninja and make share state).
    RESOURCE_LOCK netser_build_tree)
endfunction()
