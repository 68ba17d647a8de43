# MCPILOT_SANITIZE=address,undefined or =thread instruments every target of the build (use a
# build folder of its own: scripts/test.sh --sanitize does). MCPILOT_FUZZ builds the libFuzzer
# targets of tests/fuzz, which needs clang, with ASan and UBSan on the whole library; with
# MCPILOT_SANITIZE=address,undefined beside it, the same build runs the sanitized tests
# (scripts/asan-build.sh).
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
    message(FATAL_ERROR "MCPILOT_FUZZ needs clang: scripts/asan-build.sh configures such a build")
  endif()
  if(NOT MCPILOT_SANITIZE)
    add_compile_options(-fsanitize=address,undefined -fno-sanitize-recover=all
                        -fno-omit-frame-pointer)
    add_link_options(-fsanitize=address,undefined)
  elseif(NOT MCPILOT_SANITIZE MATCHES "address")
    message(FATAL_ERROR "MCPILOT_FUZZ: the fuzzers run under ASan, not ${MCPILOT_SANITIZE}")
  endif()
  # The coverage libFuzzer steers by. Its default (-fsanitize=fuzzer-no-link) also calls back on
  # every comparison and indirect call, which made the unit tests 2-3x slower in a build shared
  # with them; the edge counters alone cost little.
  set(MCPILOT_FUZZ_COVERAGE "inline-8bit-counters,pc-table" CACHE STRING
      "-fsanitize-coverage= of the fuzz build (libFuzzer's default adds trace-cmp,indirect-calls)")
  add_compile_options(-fsanitize-coverage=${MCPILOT_FUZZ_COVERAGE})
endif()
