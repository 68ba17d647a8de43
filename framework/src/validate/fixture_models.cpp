#include "fixture_models.hpp"

#include <boost/random/exponential_distribution.hpp>
#include <boost/random/gamma_distribution.hpp>
#include <boost/random/normal_distribution.hpp>
#include <boost/random/uniform_01.hpp>
#include <cmath>

namespace mcpilot::validation_fixtures {

namespace {

class normal_model final : public model {
 public:
  normal_model(double mean, double sd) : mean_(mean), sd_(sd) {}
  void declare(model_spec& s) const override { s.quantity("x"); }
  void replicate(replication& r) const override {
    boost::random::normal_distribution<double> d(mean_, sd_);
    r.record(std::size_t{0}, d(r.rng()));
  }

 private:
  double mean_, sd_;
};

class bernoulli_model final : public model {
 public:
  explicit bernoulli_model(double p) : p_(p) {}
  void declare(model_spec& s) const override { s.proportion("hit"); }
  void replicate(replication& r) const override {
    boost::random::uniform_01<double> u;
    r.record(std::size_t{0}, u(r.rng()) < p_ ? 1.0 : 0.0);
  }

 private:
  double p_;
};

class rate_model final : public model {
 public:
  explicit rate_model(double shape) : shape_(shape) {}
  void declare(model_spec& s) const override { s.rate("throughput"); }
  void replicate(replication& r) const override {
    boost::random::gamma_distribution<double> t(shape_, 1 / shape_);
    r.record(std::size_t{0}, 1 / t(r.rng()));
  }

 private:
  double shape_;
};

class mm1_model final : public model {
 public:
  explicit mm1_model(double rho) : rho_(rho) {}
  void declare(model_spec& s) const override {
    s.stream_style();
    s.quantity("wait");
  }
  std::unique_ptr<stream> open_stream(std::uint64_t) const override {
    return std::make_unique<queue>(rho_);
  }

 private:
  class queue final : public stream {
   public:
    explicit queue(double rho) : arrival_(rho), service_(1.0) {}
    void advance(stream_round& r, std::size_t count) override {
      for (std::size_t k = 0; k < count; ++k) {
        r.record(std::size_t{0}, wait_);
        const double w = wait_ + service_(r.rng()) - arrival_(r.rng());
        wait_ = w > 0 ? w : 0;
      }
    }

   private:
    boost::random::exponential_distribution<double> arrival_, service_;
    double wait_ = 0;
  };
  double rho_;
};

class lognormal_model final : public model {
 public:
  explicit lognormal_model(double sigma) : sigma_(sigma) {}
  void declare(model_spec& s) const override { s.quantity("x"); }
  void replicate(replication& r) const override {
    boost::random::normal_distribution<double> z(0.0, sigma_);
    r.record(std::size_t{0}, std::exp(z(r.rng())));
  }

 private:
  double sigma_;
};

}  // namespace

std::unique_ptr<model> lognormal_readings(double sigma) {
  return std::make_unique<lognormal_model>(sigma);
}
std::unique_ptr<model> normal_readings(double mean, double sd) {
  return std::make_unique<normal_model>(mean, sd);
}
std::unique_ptr<model> bernoulli_trials(double p) {
  return std::make_unique<bernoulli_model>(p);
}
std::unique_ptr<model> unit_rate(double shape) {
  return std::make_unique<rate_model>(shape);
}
std::unique_ptr<model> mm1_waits(double rho) {
  return std::make_unique<mm1_model>(rho);
}

}  // namespace mcpilot::validation_fixtures
