# Run at build time (cmake -P), not at configure time: the commit recorded in every result must be
# the one that was built, and a configure-time value went stale with every later commit.
# Writes OUT only when its text changes, so an unchanged commit recompiles nothing.
#   cmake -DSOURCE_DIR=... -DOUT=.../mcpilot_git_commit.h -P git_commit.cmake
execute_process(
  COMMAND git rev-parse --short=12 HEAD
  WORKING_DIRECTORY ${SOURCE_DIR}
  OUTPUT_VARIABLE commit
  OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET
  RESULT_VARIABLE failed)
if(failed OR NOT commit)
  set(commit "unknown")
else()
  # Uncommitted changes to tracked files: the commit alone would not rebuild this binary.
  execute_process(
    COMMAND git diff-index --quiet HEAD --
    WORKING_DIRECTORY ${SOURCE_DIR}
    RESULT_VARIABLE dirty
    ERROR_QUIET)
  if(dirty)
    set(commit "${commit}-dirty")
  endif()
endif()
set(text "#define MCPILOT_GIT_COMMIT \"${commit}\"\n")
if(EXISTS "${OUT}")
  file(READ "${OUT}" old)
endif()
if(NOT "${old}" STREQUAL "${text}")
  file(WRITE "${OUT}" "${text}")
endif()
