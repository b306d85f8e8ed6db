package io.geobroker.loadgen.daytrading;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * A workload file read line by line (never whole): its non-blank lines as {@link WorkloadLine}s,
 * users renamed with a prefix. The last line needs no newline after it. Read errors surface as
 * {@link UncheckedIOException} from {@link #hasNext()}.
 */
public final class WorkloadFile implements Iterator<WorkloadLine>, AutoCloseable {

    private final BufferedReader reader;
    private final String userPrefix;
    private WorkloadLine next;
    private long lines;
    private long malformed;
    private long lastTransactionNum;

    public WorkloadFile(Path file, String userPrefix) throws IOException {
        this(Files.newBufferedReader(file, StandardCharsets.UTF_8), userPrefix);
    }

    WorkloadFile(BufferedReader reader, String userPrefix) {
        this.reader = reader;
        this.userPrefix = userPrefix;
    }

    @Override
    public boolean hasNext() {
        while (next == null) {
            String raw;
            try {
                raw = reader.readLine();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read the workload file", e);
            }
            if (raw == null) {
                return false;
            }
            WorkloadLine line = WorkloadLine.parse(raw);
            if (line != null) {
                lines++;
                if (line.malformed()) {
                    malformed++;
                } else {
                    lastTransactionNum = Math.max(lastTransactionNum, line.transactionNum());
                }
                next = line.withUserPrefix(userPrefix);
            }
        }
        return true;
    }

    @Override
    public WorkloadLine next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        WorkloadLine line = next;
        next = null;
        return line;
    }

    /** Non-blank lines read so far. */
    public long lines() {
        return lines;
    }

    /** Lines read so far that are not {@code [N] COMMAND,...}. */
    public long malformed() {
        return malformed;
    }

    /** The largest transaction number read so far. */
    public long lastTransactionNum() {
        return lastTransactionNum;
    }

    /** Counts a file's non-blank lines, streaming (for the progress bar's total). */
    public static long countLines(Path file) throws IOException {
        long count = 0;
        boolean blank = true;
        byte[] buffer = new byte[64 * 1024];
        try (InputStream in = Files.newInputStream(file)) {
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                for (int i = 0; i < n; i++) {
                    byte b = buffer[i];
                    if (b == '\n') {
                        count += blank ? 0 : 1;
                        blank = true;
                    } else if (b != ' ' && b != '\r' && b != '\t') {
                        blank = false;
                    }
                }
            }
        }
        return count + (blank ? 0 : 1);
    }

    @Override
    public void close() throws IOException {
        reader.close();
    }
}
