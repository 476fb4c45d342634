/* placeholder: replaced by the OBJ reader */
#include "morphkit/obj.h"
