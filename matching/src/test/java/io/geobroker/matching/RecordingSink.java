package io.geobroker.matching;

import java.util.ArrayList;
import java.util.List;

/** Records what a book reports, in order. */
final class RecordingSink implements FillSink, ExpirySink {

    record Fill(long orderId, long quantity, long price, long remaining) {
    }

    record Expired(long orderId, long remaining) {
    }

    final List<Fill> fills = new ArrayList<>();
    final List<Long> triggered = new ArrayList<>();
    final List<Expired> expired = new ArrayList<>();

    @Override
    public void onFill(long orderId, long quantity, long price, long remaining) {
        fills.add(new Fill(orderId, quantity, price, remaining));
    }

    @Override
    public void onTriggered(long orderId) {
        triggered.add(orderId);
    }

    @Override
    public void onExpired(long orderId, long remaining) {
        expired.add(new Expired(orderId, remaining));
    }

    List<Long> filledIds() {
        return fills.stream().map(Fill::orderId).toList();
    }

    void clear() {
        fills.clear();
        triggered.clear();
        expired.clear();
    }
}
