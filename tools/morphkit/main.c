#include <stdio.h>
#include "morphkit/morphkit.h"
int main(void) { printf("morphkit %s\n", MK_VERSION_STRING); return 0; }
