/* morphkit/morphkit.h - everything except the GL layer. */
#ifndef MORPHKIT_MORPHKIT_H
#define MORPHKIT_MORPHKIT_H

#include "morphkit/config.h"
#include "morphkit/error.h"
#include "morphkit/allocator.h"
#include "morphkit/interpolation.h"
#include "morphkit/mesh.h"
#include "morphkit/frame_set.h"
#include "morphkit/blend.h"
#include "morphkit/pose.h"
#include "morphkit/qframe_set.h"
#include "morphkit/qmorph.h"
#include "morphkit/morph.h"
#include "morphkit/track.h"
#include "morphkit/scene.h"
#include "morphkit/skin.h"
#include "morphkit/clip.h"
#include "morphkit/player.h"
#include "morphkit/file.h"
#include "morphkit/obj.h"
#include "morphkit/unit.h"
#include "morphkit/repair.h"
#include "morphkit/anim_config.h"
#include "morphkit/gltf.h"
#include "morphkit/pack.h"
#include "morphkit/material.h"

#endif
