# mk_needs_layers: which libraries a test, benchmark or example source links.
# A source is built only where the layers it uses are: it needs the GL layer
# when it includes morphkit/gl.h, and the assets layer when it calls an
# assets function (mk_obj_*, mk_gltf_*, mk_unit_*, mk_anim_config_*, ...).
# Sources that include an internal header link the NAME_internal libraries
# (plain objects); the others link the installed static libraries.
set(MK_ASSETS_API_REGEX "mk_(obj|gltf|unit|anim_config|file|report|pack|repair)_[a-z_]+")
# mk_needs_layers(SOURCE OUT_LIBS OUT_OK): the libraries SOURCE links, and
# whether this build has them.
function(mk_needs_layers src out_libs out_ok)
  file(READ ${src} text)
  set(suffix _static)
  if(text MATCHES "#include \"[^\"]*(internal\\.h|src/[a-z]+/[a-z_]+\\.h)\"")
    set(suffix _internal)
  endif()
  set(libs morphkit${suffix})
  set(ok TRUE)
  if(text MATCHES "${MK_ASSETS_API_REGEX}" OR text MATCHES "#include \"[^\"]*src/io/")
    if(MK_BUILD_ASSETS)
      set(libs morphkit_assets${suffix})
    else()
      set(ok FALSE)
    endif()
  endif()
  if(text MATCHES "morphkit/gl\\.h")
    if(MK_BUILD_GL)
      list(APPEND libs morphkit_gl${suffix})
    else()
      set(ok FALSE)
    endif()
  endif()
  set(${out_libs} ${libs} PARENT_SCOPE)
  set(${out_ok} ${ok} PARENT_SCOPE)
endfunction()

