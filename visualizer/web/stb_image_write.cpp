// stb's PNG writer (Debian's libstb-dev, header-only here) compiled into the
// page: the desktop links Debian's compiled libstb instead.
#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb_image_write.h>
