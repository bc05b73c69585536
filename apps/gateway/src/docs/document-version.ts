/** The version the OpenAPI document states; bump with breaking API changes. */
export const API_DOCUMENT_VERSION = '0.1.0';
