package io.geobroker.loadgen.report;

/** HTML text escaping and the shared page frame of loadgen's self-contained reports. */
public final class Html {

    private Html() {
    }

    public static String escape(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (char c : text.toCharArray()) {
            switch (c) {
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '&' -> out.append("&amp;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(c);
            }
        }
        return out.toString();
    }

    /** A complete page: inline CSS, no scripts, no external resources. */
    public static String page(String title, String body) {
        return "<!DOCTYPE html>\n<html lang='en'>\n<head>\n<meta charset='utf-8'>\n<title>" + escape(title) + "</title>\n"
                + "<style>\n"
                + "body{font-family:sans-serif;margin:24px;color:#222;max-width:1500px}\n"
                + "h1{font-size:22px}h2{font-size:17px;margin-top:28px;border-bottom:1px solid #ccc}\n"
                + "table{border-collapse:collapse;font-size:13px;margin:8px 0}\n"
                + "th,td{border:1px solid #ccc;padding:3px 8px;text-align:right}th{background:#f3f3f3}\n"
                + "td.l,th.l{text-align:left}.note{color:#555;font-size:13px}\n"
                + ".charts{display:flex;flex-wrap:wrap;gap:12px}.bad{color:#b00}\n"
                + "</style>\n</head>\n<body>\n" + body + "</body>\n</html>\n";
    }
}
