# cmake -P: links a variant's objects into one (ld -r) and renames every symbol it defines with
# the suffix .<NAMESPACE>, except the entry points in payback::<NAMESPACE> (cmake/PaybackIsa.cmake says why).
# In: LINKER, NM, OBJCOPY, OBJECTS (separated by |), OUTPUT, NAMESPACE.
string(REPLACE "|" ";" OBJECTS "${OBJECTS}")
string(LENGTH "${NAMESPACE}" length)
set(entry_prefix "_ZN7payback${length}${NAMESPACE}")
execute_process(COMMAND ${LINKER} -r -o ${OUTPUT}.tmp ${OBJECTS} COMMAND_ERROR_IS_FATAL ANY)
# A static initializer runs when the program starts, whatever the CPU: in a variant it would run that
# variant's instructions on every machine (Boost.Math's, for one, in distribution.cpp). The compilers
# name them _GLOBAL__sub_I_<file>. AddressSanitizer adds its own to every file (to check the order of
# initialization), so its builds, which run where they are built, are not checked.
execute_process(COMMAND ${NM} ${OUTPUT}.tmp OUTPUT_VARIABLE all_symbols COMMAND_ERROR_IS_FATAL ANY)
if(NOT all_symbols MATCHES " U __asan_" AND all_symbols MATCHES " (_GLOBAL__sub_I_[A-Za-z_][^\n]*)")
  message(FATAL_ERROR "isolate_isa_variant: ${OUTPUT} has a static initializer (${CMAKE_MATCH_1}): a variant "
                      "must not; move what needs it out of the variant's sources")
endif()
# Every symbol it defines, local ones too: the COMDAT groups of constructors and destructors (C5, D5)
# are named by local symbols, and a group named as another variant's is discarded in its favour,
# taking the variant's own definitions with it.
execute_process(COMMAND ${NM} --defined-only --format=posix ${OUTPUT}.tmp
                OUTPUT_VARIABLE symbols COMMAND_ERROR_IS_FATAL ANY)
string(REPLACE "\n" ";" symbols "${symbols}")
set(renamed "")
set(entries 0)
foreach(line IN LISTS symbols)
  string(REGEX MATCH "^[^ ]+" symbol "${line}")
  if(symbol STREQUAL "")
    continue()
  endif()
  string(FIND "${symbol}" "${entry_prefix}" at)
  if(at EQUAL 0)
    math(EXPR entries "${entries} + 1")
  else()
    list(APPEND renamed "${symbol}")
  endif()
endforeach()
if(entries EQUAL 0)
  message(FATAL_ERROR "isolate_isa_variant: ${OUTPUT} defines nothing in payback::${NAMESPACE}")
endif()
list(REMOVE_DUPLICATES renamed)
set(renames "")
foreach(symbol IN LISTS renamed)
  string(APPEND renames "${symbol} ${symbol}.${NAMESPACE}\n")
endforeach()
file(WRITE ${OUTPUT}.renames "${renames}")
execute_process(COMMAND ${OBJCOPY} --redefine-syms=${OUTPUT}.renames ${OUTPUT}.tmp ${OUTPUT} COMMAND_ERROR_IS_FATAL ANY)
file(REMOVE ${OUTPUT}.tmp)
