package io.geobroker.domain;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * The HTTP/1.1 wire format of the project's own blocking clients (the load generator's orders, the
 * brokers' calls to each other): a request written in one piece, an answer read from a kept-alive
 * connection. An answer has a {@code Content-Length} or a chunked body, or a body that ends with the
 * connection; {@code Connection: close} (and HTTP/1.0) is reported, so the caller drops the
 * connection after it. Anything else is an {@link IOException}, after which the connection is of no
 * further use.
 */
public final class Http1 {

    /** A status, the answer's content type (null if it names none), its body, and whether the server closes the connection after it. */
    public record Answer(int status, String contentType, byte[] body, boolean close) {
    }

    /** Longest status or header line accepted. */
    static final int MAX_LINE = 65_536;

    private Http1() {
    }

    /**
     * A request: its line, {@code Host}, {@code Accept: application/json}, a bearer token unless it is
     * null, and a body of {@code contentType} unless the body is null.
     */
    public static byte[] request(String method, String path, String host, String bearerToken, String contentType,
                                 byte[] body) {
        StringBuilder head = new StringBuilder(256).append(method).append(' ').append(path).append(" HTTP/1.1\r\nHost: ")
                .append(host).append("\r\nAccept: application/json\r\n");
        if (bearerToken != null) {
            head.append("Authorization: Bearer ").append(bearerToken).append("\r\n");
        }
        if (body != null) {
            head.append("Content-Type: ").append(contentType).append("\r\nContent-Length: ").append(body.length)
                    .append("\r\n");
        }
        byte[] headBytes = head.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1);
        if (body == null || body.length == 0) {
            return headBytes;
        }
        byte[] request = new byte[headBytes.length + body.length];
        System.arraycopy(headBytes, 0, request, 0, headBytes.length);
        System.arraycopy(body, 0, request, headBytes.length, body.length);
        return request;
    }

    /** Reads one answer: status line, headers, body. */
    public static Answer readAnswer(InputStream in) throws IOException {
        String statusLine = line(in);
        if (!statusLine.startsWith("HTTP/1.") || statusLine.length() < 12) {
            throw new IOException("not an HTTP/1.x answer: " + abbreviate(statusLine));
        }
        int status;
        try {
            status = Integer.parseInt(statusLine.substring(9, 12));
        } catch (RuntimeException e) {
            throw new IOException("bad status line: " + abbreviate(statusLine));
        }
        long length = -1;
        boolean chunked = false;
        boolean close = statusLine.startsWith("HTTP/1.0");
        String contentType = null;
        for (String header = line(in); !header.isEmpty(); header = line(in)) {
            int colon = header.indexOf(':');
            if (colon <= 0) {
                throw new IOException("bad header line: " + abbreviate(header));
            }
            String name = header.substring(0, colon).trim().toLowerCase(Locale.ROOT);
            String value = header.substring(colon + 1).trim();
            switch (name) {
                case "content-length" -> length = contentLength(value);
                case "transfer-encoding" -> chunked = value.toLowerCase(Locale.ROOT).contains("chunked");
                case "connection" -> close = value.equalsIgnoreCase("close");
                case "content-type" -> contentType = value;
                default -> {
                }
            }
        }
        byte[] body;
        if (chunked) {
            body = chunked(in);
        } else if (length >= 0) {
            body = in.readNBytes(Math.toIntExact(length));
            if (body.length != length) {
                throw new IOException("connection closed after " + body.length + " of " + length + " body bytes");
            }
        } else if (status == 204 || status == 304) {
            body = new byte[0];
        } else {
            body = in.readAllBytes();
            close = true;
        }
        return new Answer(status, contentType, body, close);
    }

    private static long contentLength(String value) throws IOException {
        try {
            long length = Long.parseLong(value);
            if (length < 0 || length > Integer.MAX_VALUE) {
                throw new IOException("bad Content-Length: " + abbreviate(value));
            }
            return length;
        } catch (NumberFormatException e) {
            throw new IOException("bad Content-Length: " + abbreviate(value));
        }
    }

    private static byte[] chunked(InputStream in) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream(512);
        while (true) {
            String sizeLine = line(in);
            int semicolon = sizeLine.indexOf(';');
            int size;
            try {
                size = Integer.parseInt((semicolon < 0 ? sizeLine : sizeLine.substring(0, semicolon)).trim(), 16);
            } catch (NumberFormatException e) {
                throw new IOException("bad chunk size: " + abbreviate(sizeLine));
            }
            if (size < 0) {
                throw new IOException("bad chunk size: " + abbreviate(sizeLine));
            }
            if (size == 0) {
                while (!line(in).isEmpty()) {
                    // trailers: ignored
                }
                return body.toByteArray();
            }
            byte[] chunk = in.readNBytes(size);
            if (chunk.length != size) {
                throw new IOException("connection closed inside a chunk");
            }
            body.write(chunk);
            if (!line(in).isEmpty()) {
                throw new IOException("chunk not followed by CRLF");
            }
        }
    }

    /** A header line without its CRLF; at most {@link #MAX_LINE} characters. */
    private static String line(InputStream in) throws IOException {
        StringBuilder s = new StringBuilder(64);
        while (true) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("connection closed by the server");
            }
            if (b == '\n') {
                int end = s.length();
                if (end > 0 && s.charAt(end - 1) == '\r') {
                    s.setLength(end - 1);
                }
                return s.toString();
            }
            if (s.length() >= MAX_LINE) {
                throw new IOException("header line longer than " + MAX_LINE + " characters");
            }
            s.append((char) b);
        }
    }

    private static String abbreviate(String s) {
        return s.length() <= 80 ? s : s.substring(0, 80) + "...";
    }
}
