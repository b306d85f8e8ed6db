package io.geobroker.broker.it;

/** Helpers of the tests that write HTTP/1.1 requests on a socket themselves and read the answer as it is. */
final class RawHttp {

    private RawHttp() {
    }

    /** The body of a {@code Transfer-Encoding: chunked} answer, its chunks joined. */
    static String unchunk(String chunked) {
        StringBuilder out = new StringBuilder();
        int at = 0;
        while (true) {
            int eol = chunked.indexOf("\r\n", at);
            int size = Integer.parseInt(chunked.substring(at, eol).trim(), 16);
            if (size == 0) {
                return out.toString();
            }
            out.append(chunked, eol + 2, eol + 2 + size);
            at = eol + 2 + size + 2;
        }
    }
}
