package io.geobroker.loadgen.daytrading;

import org.xml.sax.ErrorHandler;
import org.xml.sax.SAXException;
import org.xml.sax.SAXParseException;

import javax.xml.XMLConstants;
import javax.xml.transform.stream.StreamSource;
import javax.xml.validation.Schema;
import javax.xml.validation.SchemaFactory;
import javax.xml.validation.Validator;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Validates a DUMPLOG's XML against the course's log schema, streamed (a SAX parse under the
 * validator, never a tree of the whole file), counting every error and keeping the first few. The
 * schema is geobroker's copy, {@value #SCHEMA}, whose timestamp upper bound is widened from
 * May 1, 2021 to Jan 1, 2100.
 */
public final class LogValidator {

    public static final String SCHEMA = "geobroker/day-trading-logfile.xsd";

    /** What every report says about the schema. */
    public static final String SCHEMA_NOTE = "SENG 468's logfile.xsd with its timestamp upper bound widened from "
            + "May 1, 2021 to Jan 1, 2100 (the course's bound rejects any log written today); otherwise unchanged";

    private static final int KEPT_ERRORS = 5;

    /**
     * The outcome: valid when no error was found; {@code errors} counts them all. Not well-formed:
     * the parse stopped at a fatal error (a log cut short ends that way).
     */
    public record Validation(boolean valid, boolean wellFormed, long errors, List<String> firstErrors) {
        public Validation {
            firstErrors = List.copyOf(firstErrors);
        }

        public String describe() {
            return valid ? "valid" : String.format(Locale.ROOT, "INVALID%s, %,d error(s), first: %s",
                    wellFormed ? "" : " (not well-formed XML: cut short?)", errors, String.join(" | ", firstErrors));
        }
    }

    private final Schema schema;

    public LogValidator() {
        URL xsd = LogValidator.class.getClassLoader().getResource(SCHEMA);
        if (xsd == null) {
            throw new IllegalStateException("the log schema " + SCHEMA + " is not on the class path");
        }
        try {
            SchemaFactory factory = SchemaFactory.newInstance(XMLConstants.W3C_XML_SCHEMA_NS_URI);
            factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            schema = factory.newSchema(xsd);
        } catch (SAXException e) {
            throw new IllegalStateException("cannot read the log schema " + SCHEMA, e);
        }
    }

    public Validation validate(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            return validate(new StreamSource(in, file.toUri().toString()));
        }
    }

    Validation validate(StreamSource source) throws IOException {
        Validator validator = schema.newValidator();
        try {
            validator.setProperty(XMLConstants.ACCESS_EXTERNAL_DTD, "");
            validator.setProperty(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
        } catch (SAXException e) {
            throw new IllegalStateException("the XML validator cannot be locked down", e);
        }
        Errors errors = new Errors();
        validator.setErrorHandler(errors);
        boolean wellFormed = true;
        try {
            validator.validate(source);
        } catch (SAXException e) {
            // a fatal error (not well-formed): already counted by the handler
            wellFormed = false;
            if (errors.count == 0) {
                errors.add(e.getMessage());
            }
        }
        return new Validation(errors.count == 0, wellFormed, errors.count, errors.first);
    }

    private static final class Errors implements ErrorHandler {
        long count;
        final List<String> first = new ArrayList<>();

        void add(String message) {
            count++;
            if (first.size() < KEPT_ERRORS) {
                first.add(message);
            }
        }

        private void add(SAXParseException e) {
            add("line " + e.getLineNumber() + ": " + e.getMessage());
        }

        @Override
        public void warning(SAXParseException e) {
            // warnings do not make a log invalid
        }

        @Override
        public void error(SAXParseException e) {
            add(e);
        }

        @Override
        public void fatalError(SAXParseException e) throws SAXException {
            add(e);
            throw e;
        }
    }
}
