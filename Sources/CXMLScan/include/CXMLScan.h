#ifndef CXMLSCAN_H
#define CXMLSCAN_H

#include <stddef.h>

/// Scans an XML document with libxml2's SAX2 parser, visiting every element
/// and text run and building nothing: the speed reference for the benchmark.
/// Only plain C types cross this header, so Swift never imports libxml2's own
/// headers (which pull in the system ICU and clash with Foundation's).
/// Returns 0 when libxml2 parsed the document without error.
int interlude_xml_sax_scan(const unsigned char *bytes, size_t length, long *elements, long *text_bytes);

#endif
