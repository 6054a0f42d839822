#ifdef NO_HOST_FILE
inline int hostPart() { return 0; }
#else
int hostPart();
#endif
