# libFuzzer targets (tests/fuzz), clang only. Included before the source folders so that every one
# of our targets is built with coverage instrumentation for the fuzzer and with ASan+UBSan: a
# fuzzer only learns from code it can see, and only finds what a sanitizer turns into a crash.
# The fuzz executables themselves link libFuzzer's main() (tests/fuzz/CMakeLists.txt).
if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "COMPOSELAB_FUZZ needs clang and libFuzzer: configure with "
                        "-DCMAKE_CXX_COMPILER=clang++ (scripts/fuzz.sh does)")
endif()
# -fno-sanitize-recover: UB aborts, so that libFuzzer records the input instead of printing a
# warning and going on.
add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all
                    -fno-omit-frame-pointer)
add_link_options(-fsanitize=address,undefined)
