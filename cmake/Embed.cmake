# Compiles data files (catalog JSON, example designs) into the program, so the binary and the
# model library need no files at run time and no Qt resource system.
function(composelab_embed target out_cpp)
    set(_inputs ${ARGN})
    add_custom_command(
        OUTPUT "${out_cpp}"
        COMMAND ${CMAKE_COMMAND} -DOUT=${out_cpp} -DROOT=${CMAKE_SOURCE_DIR}
                "-DINPUTS=${_inputs}" -P "${CMAKE_SOURCE_DIR}/cmake/EmbedFiles.cmake"
        DEPENDS ${_inputs} "${CMAKE_SOURCE_DIR}/cmake/EmbedFiles.cmake"
        COMMENT "Embedding data files"
        VERBATIM)
    target_sources(${target} PRIVATE "${out_cpp}")
endfunction()
