/* Helpers shared by the assets layer (src/io); not installed. */
#ifndef MORPHKIT_IO_INTERNAL_H
#define MORPHKIT_IO_INTERNAL_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "morphkit/allocator.h"
#include "morphkit/error.h"


#endif
