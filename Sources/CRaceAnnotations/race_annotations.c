// The annotations are inline functions in the header; SwiftPM builds a C target from a source file.
#include "race_annotations.h"
