# Shared by the consumer projects: builds main.cpp twice, against netser::core
# (core header only) and netser::netser (umbrella), and adds a run_consumer
# target that runs both.

# Usage requirements must carry no warning flags: -Werror must never reach users.
foreach(target netser::core netser::netser)
  if(NOT TARGET ${target})
    message(FATAL_ERROR "consumer: target ${target} is missing")
  endif()
  get_target_property(options ${target} INTERFACE_COMPILE_OPTIONS)
  if(options)
    message(FATAL_ERROR "consumer: ${target} leaks compile options: ${options}")
  endif()
  get_target_property(links ${target} INTERFACE_LINK_LIBRARIES)
  if(links MATCHES "warnings")
    message(FATAL_ERROR "consumer: ${target} links ${links}")
  endif()
endforeach()

add_executable(consumer_core main.cpp)
target_compile_definitions(consumer_core PRIVATE NETSER_CONSUMER_CORE_ONLY)
target_link_libraries(consumer_core PRIVATE netser::core)

add_executable(consumer_netser main.cpp)
target_link_libraries(consumer_netser PRIVATE netser::netser)

add_custom_target(run_consumer
  COMMAND consumer_core
  COMMAND consumer_netser
  COMMENT "Running the netser consumers"
  VERBATIM)
