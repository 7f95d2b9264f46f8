void axpy(void) {}
