package io.geobroker.schema;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns one versioned {@code .cql} resource into executable statements: placeholders such as
 * {@code ${keyspace}} are replaced, then the text is split on {@code ;} outside comments, string
 * literals, quoted identifiers and {@code $$} blocks.
 */
final class CqlScript {

    private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{([A-Za-z0-9_.-]+)}");

    private CqlScript() {
    }

    static String substitute(String text, Map<String, String> values) {
        Matcher m = PLACEHOLDER.matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String value = values.get(m.group(1));
            if (value == null) {
                throw new IllegalArgumentException("no value for placeholder ${" + m.group(1) + "}");
            }
            m.appendReplacement(out, Matcher.quoteReplacement(value));
        }
        m.appendTail(out);
        return out.toString();
    }

    /** The statements of a script, without comments, trimmed, empty ones dropped. */
    static List<String> split(String text) {
        List<String> statements = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        int i = 0;
        int n = text.length();
        while (i < n) {
            char c = text.charAt(i);
            char next = i + 1 < n ? text.charAt(i + 1) : '\0';
            if ((c == '-' && next == '-') || (c == '/' && next == '/')) {
                int end = text.indexOf('\n', i);
                i = end < 0 ? n : end;
                current.append(' ');
            } else if (c == '/' && next == '*') {
                int end = text.indexOf("*/", i + 2);
                if (end < 0) {
                    throw new IllegalArgumentException("unterminated /* comment");
                }
                i = end + 2;
                current.append(' ');
            } else if (c == '\'' || c == '"') {
                int end = closingQuote(text, i, c);
                current.append(text, i, end + 1);
                i = end + 1;
            } else if (c == '$' && next == '$') {
                int end = text.indexOf("$$", i + 2);
                if (end < 0) {
                    throw new IllegalArgumentException("unterminated $$ block");
                }
                current.append(text, i, end + 2);
                i = end + 2;
            } else if (c == ';') {
                add(statements, current);
                i++;
            } else {
                current.append(c);
                i++;
            }
        }
        add(statements, current);
        return statements;
    }

    /** The index of the quote closing the literal opened at {@code start}; doubled quotes escape. */
    private static int closingQuote(String text, int start, char quote) {
        int i = start + 1;
        while (i < text.length()) {
            if (text.charAt(i) == quote) {
                if (i + 1 < text.length() && text.charAt(i + 1) == quote) {
                    i += 2;
                    continue;
                }
                return i;
            }
            i++;
        }
        throw new IllegalArgumentException("unterminated " + quote + " literal");
    }

    private static void add(List<String> statements, StringBuilder current) {
        String statement = current.toString().strip().replaceAll("\\s+\\n", "\n");
        if (!statement.isEmpty()) {
            statements.add(statement);
        }
        current.setLength(0);
    }
}
