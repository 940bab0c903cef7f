/* The Win32 calls the program makes, declared here: it is built for
 * x86_64-pc-windows-msvc without the MSVC headers or runtime, and links
 * against the MinGW import library of kernel32. */
#ifndef WIN32_MIN_H
#define WIN32_MIN_H

#define STD_OUTPUT_HANDLE ((unsigned long)-11)
__declspec(dllimport) void *__stdcall GetStdHandle(unsigned long which);
__declspec(dllimport) int __stdcall WriteFile(void *file, const void *data, unsigned long size,
                                              unsigned long *written, void *overlapped);
__declspec(dllimport) __declspec(noreturn) void __stdcall ExitProcess(unsigned code);

#define EXPORTED __declspec(dllexport)

EXPORTED void put_text(const char *text);
EXPORTED void put_number(const char *label, unsigned long long value);
EXPORTED unsigned long long table_work(unsigned seed);

#endif
