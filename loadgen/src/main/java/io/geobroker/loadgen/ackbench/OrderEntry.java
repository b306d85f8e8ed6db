package io.geobroker.loadgen.ackbench;

/**
 * One client's door to the broker: places an order and returns its ack, blocking the calling thread
 * until the ack arrives or {@code --ack-timeout} passes. Each client thread has its own.
 */
public interface OrderEntry {

    Ack place(BenchOrder order) throws InterruptedException;
}
