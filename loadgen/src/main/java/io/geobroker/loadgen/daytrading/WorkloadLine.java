package io.geobroker.loadgen.daytrading;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One line of a day-trading workload file, {@code [N] COMMAND,field,...}: its transaction number,
 * command, user (the first field; for {@code DUMPLOG} only in the user form
 * {@code DUMPLOG,user,filename}) and its text as sent. A line that does not have that shape is
 * {@linkplain #malformed() malformed}: it is sent as it is and the broker answers it with an error.
 * Lines without a user (the admin {@code DUMPLOG,filename}, malformed lines) are replayed as barriers:
 * alone, after everything before them is answered.
 */
public record WorkloadLine(long transactionNum, String command, String user, String text) {

    private static final Pattern SHAPE = Pattern.compile("\\[(\\d{1,18})]\\s*([A-Za-z_]+)(?:,(.*))?");

    public static final String DUMPLOG = "DUMPLOG";

    /**
     * The line without its trailing white space, or {@code null} for a blank line. Never fails: a line
     * that is not {@code [N] COMMAND,...} comes back malformed (transaction number -1, no command).
     */
    public static WorkloadLine parse(String raw) {
        String text = raw.strip();
        if (text.isEmpty()) {
            return null;
        }
        Matcher m = SHAPE.matcher(text);
        if (!m.matches()) {
            return new WorkloadLine(-1, null, null, text);
        }
        long n = Long.parseLong(m.group(1));
        String command = m.group(2);
        String fields = m.group(3);
        String user = null;
        if (fields != null) {
            int comma = fields.indexOf(',');
            String first = (comma < 0 ? fields : fields.substring(0, comma)).strip();
            boolean adminDumplog = DUMPLOG.equals(command) && comma < 0;
            if (!first.isEmpty() && !adminDumplog) {
                user = first;
            }
        }
        return new WorkloadLine(n, command, user, text);
    }

    public boolean malformed() {
        return command == null;
    }

    /** Replayed alone, after everything before it is answered, and before anything after it is sent. */
    public boolean barrier() {
        return user == null;
    }

    /** The admin {@code DUMPLOG,filename}: the whole log. */
    public boolean adminDumplog() {
        return DUMPLOG.equals(command) && user == null;
    }

    /**
     * The line with the user renamed to {@code prefix + user} (so that a rerun starts every user from
     * zero cash); lines without a user are unchanged.
     */
    public WorkloadLine withUserPrefix(String prefix) {
        if (user == null || prefix.isEmpty()) {
            return this;
        }
        int comma = text.indexOf(',');
        int userStart = comma + 1;
        while (Character.isWhitespace(text.charAt(userStart))) {
            userStart++;
        }
        String renamed = prefix + user;
        return new WorkloadLine(transactionNum, command, renamed,
                text.substring(0, userStart) + renamed + text.substring(userStart + user.length()));
    }
}
