#include "shapes.h"

int main(int argc, char **) { return shapes_run(argc); }
