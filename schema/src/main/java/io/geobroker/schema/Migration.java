package io.geobroker.schema;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * One versioned schema script, {@code cql/V<version>__<description>.cql} on the class path.
 * Versions are applied in numeric order; a version is never edited once released, a change is a
 * new version.
 */
public record Migration(int version, String name, String text) {

    static final String DIRECTORY = "cql";
    private static final Pattern FILE = Pattern.compile("V(\\d+)__([A-Za-z0-9_]+)\\.cql");

    /** A short SHA-256 of the script text, recorded with the version so a changed script is noticed. */
    public String checksum() {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(hash, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** All migrations on the class path of the given loader, ordered by version. */
    public static List<Migration> onClassPath(ClassLoader loader) {
        Set<String> files = new TreeSet<>();
        try {
            var urls = loader.getResources(DIRECTORY);
            while (urls.hasMoreElements()) {
                files.addAll(list(urls.nextElement()));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list schema scripts", e);
        }
        List<Migration> migrations = new ArrayList<>();
        for (String file : files) {
            Matcher m = FILE.matcher(file);
            if (!m.matches()) {
                continue;
            }
            migrations.add(new Migration(Integer.parseInt(m.group(1)), m.group(2), read(loader, file)));
        }
        migrations.sort(Comparator.comparingInt(Migration::version));
        for (int i = 1; i < migrations.size(); i++) {
            if (migrations.get(i).version() == migrations.get(i - 1).version()) {
                throw new IllegalStateException("two schema scripts have version " + migrations.get(i).version());
            }
        }
        return migrations;
    }

    private static List<String> list(URL directory) throws IOException {
        switch (directory.getProtocol()) {
            case "file" -> {
                try (Stream<Path> entries = Files.list(Path.of(directory.toURI()))) {
                    return entries.map(p -> p.getFileName().toString()).toList();
                } catch (URISyntaxException e) {
                    throw new IOException(e);
                }
            }
            case "jar" -> {
                String spec = directory.getPath();
                String jar = spec.substring("file:".length(), spec.indexOf("!/"));
                List<String> names = new ArrayList<>();
                try (JarFile file = new JarFile(java.net.URLDecoder.decode(jar, StandardCharsets.UTF_8))) {
                    for (JarEntry entry : java.util.Collections.list(file.entries())) {
                        String name = entry.getName();
                        if (name.startsWith(DIRECTORY + "/") && name.length() > DIRECTORY.length() + 1
                                && name.indexOf('/', DIRECTORY.length() + 1) < 0) {
                            names.add(name.substring(DIRECTORY.length() + 1));
                        }
                    }
                }
                return names;
            }
            default -> throw new IOException("cannot list schema scripts in " + directory);
        }
    }

    private static String read(ClassLoader loader, String file) {
        try (InputStream in = loader.getResourceAsStream(DIRECTORY + "/" + file)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read schema script " + file, e);
        }
    }
}
