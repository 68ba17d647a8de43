# Unity builds: a target's sources compiled a batch at a time, so that the heavy header-only
# libraries are parsed once per batch instead of once per file (CLI11 alone costs 8 s of CPU in
# each of the 23 files that include it; nlohmann-json 2 s in 49, Boost.Math 2 s). Batches follow
# the sources' paths, so a new file is picked up by the next configure like any other (the globs
# in framework/ and models/); a file with compile definitions of its own is compiled alone.
# On by default for a fresh build (a new user, CI). Off by default when ccache is the compiler
# launcher: a developer's incremental build then recompiles the file edited, not its batch, and
# ccache keeps its per-file hits. -DMCPILOT_UNITY_BUILD=ON|OFF decides either way.
if(CMAKE_CXX_COMPILER_LAUNCHER MATCHES "ccache")
  set(mcpilot_unity_default OFF)
else()
  set(mcpilot_unity_default ON)
endif()
option(MCPILOT_UNITY_BUILD "Compile the library and models in batches (fresh builds, CI)"
       ${mcpilot_unity_default})

function(mcpilot_unity target)
  if(MCPILOT_UNITY_BUILD)
    set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 16)
  endif()
endfunction()
