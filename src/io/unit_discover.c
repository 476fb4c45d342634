/* placeholder */
#include "morphkit/unit.h"
