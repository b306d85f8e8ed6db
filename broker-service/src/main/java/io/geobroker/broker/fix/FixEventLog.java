package io.geobroker.broker.fix;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import quickfix.Log;
import quickfix.LogFactory;
import quickfix.SessionID;

import java.util.regex.Pattern;

/**
 * QuickFIX/J's session events in the broker's log, and never the messages themselves: a Logon
 * carries the customer's token in Password(554). Event texts that quote a message have that field
 * blanked.
 */
final class FixEventLog implements LogFactory {

    private static final Logger log = LoggerFactory.getLogger("io.geobroker.broker.fix.session");
    private static final Pattern PASSWORD = Pattern.compile("(^|[\\x01|])554=[^\\x01|]*");

    @Override
    public Log create(SessionID sessionId) {
        String prefix = sessionId.getTargetCompID() + ": ";
        return new Log() {
            @Override
            public void clear() {
            }

            @Override
            public void onIncoming(String message) {
            }

            @Override
            public void onOutgoing(String message) {
            }

            @Override
            public void onEvent(String text) {
                log.debug("{}{}", prefix, scrub(text));
            }

            @Override
            public void onErrorEvent(String text) {
                log.warn("{}{}", prefix, scrub(text));
            }
        };
    }

    static String scrub(String text) {
        return text == null ? null : PASSWORD.matcher(text).replaceAll("$1554=***");
    }
}
