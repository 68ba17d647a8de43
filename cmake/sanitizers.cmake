# MCPILOT_SANITIZE=address,undefined or =thread instruments every target of the build (use a
# build folder of its own: scripts/test.sh --sanitize does). MCPILOT_FUZZ builds the libFuzzer
# targets of tests/fuzz, which needs clang, with ASan and UBSan on the whole library.
set(MCPILOT_SANITIZE "" CACHE STRING
  "sanitizers for every target: address,undefined or thread (empty: none)")
option(MCPILOT_FUZZ "Build the libFuzzer targets in tests/fuzz (clang; a build folder of its own)" OFF)

if(MCPILOT_SANITIZE)
  if(MCPILOT_SANITIZE MATCHES "thread" AND MCPILOT_SANITIZE MATCHES "address")
    message(FATAL_ERROR "MCPILOT_SANITIZE: thread cannot be combined with address")
  endif()
  # No recovery: a finding fails the test that made it, instead of scrolling past.
  add_compile_options(-fsanitize=${MCPILOT_SANITIZE} -fno-sanitize-recover=all
                      -fno-omit-frame-pointer)
  add_link_options(-fsanitize=${MCPILOT_SANITIZE})
  # Executables without PIE under ASan: a position-independent test binary carries some 2 million
  # relative relocations (the instrumented globals' descriptors among them), and applying them
  # took 0.35 s of every test's start, a test process each: about 4 minutes of CPU per suite.
  if(MCPILOT_SANITIZE MATCHES "address")
    string(APPEND CMAKE_EXE_LINKER_FLAGS " -no-pie")
  endif()
endif()

if(MCPILOT_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "MCPILOT_FUZZ needs clang: cmake -S . -B build-fuzz "
                        "-DCMAKE_CXX_COMPILER=clang++ -DMCPILOT_FUZZ=ON")
  endif()
  add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all
                      -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined)
endif()
