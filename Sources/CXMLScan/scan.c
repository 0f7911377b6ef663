#include "CXMLScan.h"

#include <libxml/parser.h>
#include <libxml/SAX2.h>

struct counters {
    long elements;
    long text_bytes;
};

static void on_start(void *context, const xmlChar *localname, const xmlChar *prefix, const xmlChar *uri,
                     int namespace_count, const xmlChar **namespaces, int attribute_count, int defaulted_count,
                     const xmlChar **attributes) {
    (void)localname; (void)prefix; (void)uri; (void)namespace_count; (void)namespaces;
    (void)attribute_count; (void)defaulted_count; (void)attributes;
    ((struct counters *)context)->elements += 1;
}

static void on_text(void *context, const xmlChar *text, int length) {
    (void)text;
    ((struct counters *)context)->text_bytes += length;
}

int interlude_xml_sax_scan(const unsigned char *bytes, size_t length, long *elements, long *text_bytes) {
    xmlSAXHandler handler = {0};
    handler.initialized = XML_SAX2_MAGIC;
    handler.startElementNs = on_start;
    handler.characters = on_text;
    handler.cdataBlock = on_text;
    struct counters counters = {0, 0};
    int status = xmlSAXUserParseMemory(&handler, &counters, (const char *)bytes, (int)length);
    *elements += counters.elements;
    *text_bytes += counters.text_bytes;
    return status;
}
