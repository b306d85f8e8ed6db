variable "regions" {
  description = "The regions of the deployment, in topology order. The first entries' CIDRs, node counts and DC names decide every private address (see README: addressing)."
  type = list(object({
    name               = string
    cloud_region       = string
    cidr               = string
    dc                 = string
    exchanges          = list(string)
    replication_factor = number
    cassandra_nodes    = number
    kafka_brokers      = number
    ticker_instances   = number
  }))

  validation {
    condition     = length(var.regions) >= 1
    error_message = "A deployment needs at least one region."
  }
  validation {
    condition     = alltrue([for r in var.regions : can(regex("^[a-z][a-z0-9]*$", r.name))])
    error_message = "Region names are lower-case letters and digits (they become topology keys and resource names)."
  }
  validation {
    condition     = length(distinct([for r in var.regions : r.name])) == length(var.regions)
    error_message = "Region names must be unique."
  }
  validation {
    condition     = length(distinct([for r in var.regions : r.dc])) == length(var.regions) && alltrue([for r in var.regions : can(regex("^[A-Za-z][A-Za-z0-9]*$", r.dc))])
    error_message = "Every region needs its own Cassandra DC name (letters and digits)."
  }
  validation {
    condition     = alltrue([for r in var.regions : can(cidrnetmask(r.cidr)) && endswith(r.cidr, "/16")])
    error_message = "Every region's VPC CIDR must be an IPv4 /16."
  }
  validation {
    condition     = length(distinct([for r in var.regions : cidrhost(r.cidr, 0)])) == length(var.regions)
    error_message = "Region CIDRs must not overlap (the VPCs are peered)."
  }
  validation {
    condition     = alltrue([for r in var.regions : length(r.exchanges) >= 1])
    error_message = "Every region owns at least one exchange."
  }
  validation {
    condition     = length(distinct(flatten([for r in var.regions : r.exchanges]))) == length(flatten([for r in var.regions : r.exchanges]))
    error_message = "An exchange belongs to exactly one region."
  }
  validation {
    condition     = alltrue([for r in var.regions : r.replication_factor >= 1 && r.replication_factor <= 5 && r.cassandra_nodes >= r.replication_factor])
    error_message = "replication_factor must be 1..5 and no larger than the region's cassandra_nodes."
  }
  validation {
    condition     = alltrue([for r in var.regions : r.cassandra_nodes >= 1 && r.cassandra_nodes <= 30 && r.kafka_brokers >= 1 && r.kafka_brokers <= 9 && r.ticker_instances >= 0 && r.ticker_instances <= 9])
    error_message = "Per region: 1..30 Cassandra nodes, 1..9 Kafka brokers, 0..9 ticker-service instances."
  }
}
