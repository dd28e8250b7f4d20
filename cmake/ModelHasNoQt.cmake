# model/ is the plain-C++ core (ARCHITECTURE.md): it must not include any Qt header.
# Checked at configure time so that a slip fails the build before anything compiles.
file(GLOB_RECURSE _model_sources CONFIGURE_DEPENDS
     "${CMAKE_SOURCE_DIR}/model/*.h" "${CMAKE_SOURCE_DIR}/model/*.cpp")
foreach(_f IN LISTS _model_sources)
    file(STRINGS "${_f}" _qt_includes REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"](Q[A-Za-z]|Qt[A-Za-z]*/)")
    if(_qt_includes)
        message(FATAL_ERROR "model/ must not use Qt, but ${_f} has: ${_qt_includes}")
    endif()
endforeach()

# Qt settings of STYLE.md §8 for every target that uses Qt.
function(composelab_qt_defaults target)
    target_compile_definitions(${target} PRIVATE QT_NO_KEYWORDS QT_NO_CAST_FROM_ASCII
                               QT_NO_NARROWING_CONVERSIONS_IN_CONNECT)
endfunction()
